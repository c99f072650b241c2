/**
 * The simulator's command line: options, the run of each configuration beside the baseline, the
 * printed table and final line.
 *
 * <p>Start at {@code SimulateCommand}.
 */
package io.tyrl.arranger.simulator.cli;
