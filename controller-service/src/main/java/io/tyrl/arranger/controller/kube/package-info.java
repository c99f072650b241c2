/**
 * The controller's Kubernetes edge: informers feed a rate-limited work queue; the {@code
 * TYJobReconciler} reads a job and its pods into the lifecycle's observation, asks the planner for
 * a plan, and the {@code PlanExecutor} carries it out (pods created and deleted, status patched,
 * Events recorded), every write fenced by leadership. The {@code VictimEvictor} deletes the pods
 * the scheduler chose as victims.
 *
 * <p>Start at {@code TYJobReconciler}.
 */
package io.tyrl.arranger.controller.kube;
