package io.tyrl.arranger.scheduler.framework;

/**
 * A queue whose place in the tree is invalid, and why.
 *
 * @param queue the queue that has the problem (the job's own queue, or one above it)
 * @param description what is wrong, in words a user can act on
 */
public record QueueProblem(QueueState queue, String description) {

  /** What a job under the queue is told: {@code queue research is invalid: parent x ...}. */
  public String forJob() {
    return "queue " + queue.path() + " is invalid: " + description;
  }
}
