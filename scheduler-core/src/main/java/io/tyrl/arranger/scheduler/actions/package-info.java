/**
 * The actions a cycle runs, in the order the configuration lists them: enqueue (admit jobs whose
 * minimum can fit), allocate (place admitted jobs' tasks), backfill (tasks that ask for nothing),
 * preempt (evict lower-priority jobs within a queue) and reclaim (take back from queues above their
 * deserved share). They decide through the session's functions, never through a plugin directly.
 *
 * <p>Start at {@code BuiltInActions} for the list, then the action you are changing; victims are
 * chosen by {@code VictimSelector} for both preempt and reclaim.
 */
package io.tyrl.arranger.scheduler.actions;
