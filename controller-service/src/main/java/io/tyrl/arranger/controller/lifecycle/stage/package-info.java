/**
 * The lifecycle's rules: one {@link StagePlanner} per stage (Pending, Starting, Running,
 * Rescheduling, and one for both ends), and what they share: {@link LeaderSupervisor} and {@link
 * WorkerSupervisor} watch a started job, {@link PodLauncher} and {@link PodCleanup} create and
 * remove its pods, {@link JobTermination} ends it. Start at the planner of the stage you are
 * changing; each reads a {@code JobObservation} and writes only to a {@code PlanDraft}.
 */
package io.tyrl.arranger.controller.lifecycle.stage;
