/**
 * Spring wiring of the scheduler service: properties, beans, the configuration endpoint.
 *
 * <p>Start at {@code SchedulerWiring}; a new setting goes in {@code SchedulerProperties}.
 */
package io.tyrl.arranger.scheduler.app;
