/**
 * The contract the scheduler and the controller share, written once: how pods are named and
 * labelled, the controller's {@code status.stage} and the scheduler's {@code status.scheduleState},
 * the defaults the CRD applies, and how quantities and durations in a TYJob are read.
 *
 * <p>Pure: its module has no dependencies, so both services' pure cores may depend on it.
 */
package io.tyrl.arranger.crd.contract;
