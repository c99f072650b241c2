package io.tyrl.arranger.scheduler.api;

/** Per-queue figures at the end of a cycle, for metrics: deserved share, allocation and pending jobs. */
public record QueueSummary(String name, Resource deserved, Resource allocated, int pendingJobs) {}
