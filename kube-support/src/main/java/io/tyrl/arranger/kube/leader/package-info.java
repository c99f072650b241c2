/**
 * Leader election on a Lease and the fence every write asks first.
 *
 * <p>Start at {@code LeaderElection}; writers depend on {@code LeadershipFence} only.
 */
package io.tyrl.arranger.kube.leader;
