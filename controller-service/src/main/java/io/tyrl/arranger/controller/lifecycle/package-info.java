/**
 * The TYJob lifecycle as a pure function: a job and its pods in, a {@code Plan} out, which the
 * adapter in {@code controller.kube} applies. Start at {@link LifecyclePlanner}: it validates the
 * job, builds its observation, hands it to the current stage's rules and projects the status they
 * leave. The role packages below it never call back into it: {@code observe} (what a plan is made
 * from), {@code stage} (the rules), {@code plan} (what they decide), {@code status} (the status as
 * stored) and {@code validation}.
 */
package io.tyrl.arranger.controller.lifecycle;
