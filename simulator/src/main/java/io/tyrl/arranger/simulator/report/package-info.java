/**
 * The HTML report (Chart.js inlined, opens offline) and the CSV of the series.
 *
 * <p>Start at {@code HtmlReport}.
 */
package io.tyrl.arranger.simulator.report;
