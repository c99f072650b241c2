/**
 * What one plan is made from: immutable views of a TYJob ({@link JobView}: its spec, the
 * scheduler's status, the controller's status as last written) and of its pods ({@link PodView}),
 * filled by the adapter, and the slots the spec asks for under their deterministic names ({@link
 * PodNaming}). Start at {@link JobObservation}, built once per plan so that every rule reads the
 * same facts. It imports only {@code status}: the status as last written is part of what is
 * observed.
 */
package io.tyrl.arranger.controller.lifecycle.observe;
