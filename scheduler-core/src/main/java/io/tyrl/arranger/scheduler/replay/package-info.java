/**
 * A live cycle's input as a file: the snapshot, the configuration text and what the cycle decided,
 * written by the scheduler's dump endpoint and read by the simulator's replay, in one JSON format
 * defined here for both.
 */
package io.tyrl.arranger.scheduler.replay;
