/**
 * The scheduler configuration: its YAML (actions, tiers of plugins, plugin arguments) parsed and
 * checked by {@link io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser} against the
 * argument schemas each plugin declares, with errors that name the field; the default
 * configuration.
 *
 * <p>Start at {@code SchedulerConfigurationParser}.
 */
package io.tyrl.arranger.scheduler.conf;
