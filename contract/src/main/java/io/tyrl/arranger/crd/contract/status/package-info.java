/**
 * The parts of a TYJob's status that the scheduler and the controller exchange, each a record that
 * encodes itself to plain JSON values and decodes leniently from them: allocations, {@code
 * status.scheduling}, victims, avoided nodes. Both services' writers and readers go through these
 * records, so each key is spelled once ({@link io.tyrl.arranger.crd.contract.status.StatusFields}).
 * The keys of the Queue status the scheduler writes are here too ({@link
 * io.tyrl.arranger.crd.contract.status.QueueStatusFields}).
 *
 * <p>Start at {@code StatusFields}, then the record of the part you change.
 */
package io.tyrl.arranger.crd.contract.status;
