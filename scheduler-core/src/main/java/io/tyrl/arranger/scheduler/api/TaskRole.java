package io.tyrl.arranger.scheduler.api;

/** The Learner is the job's LEADER; Actors are WORKERs of a WorkerSet. */
public enum TaskRole {
  LEADER,
  WORKER
}
