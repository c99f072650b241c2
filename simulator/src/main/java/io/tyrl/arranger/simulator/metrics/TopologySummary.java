package io.tyrl.arranger.simulator.metrics;

/**
 * How a run kept multi-node jobs inside their topology domains: of the jobs that asked a required
 * (preferred) level and started over more than one node, the share whose pods shared one domain of
 * it when they started.
 *
 * @param required jobs with a required level that started over several nodes
 * @param requiredInDomain the share of them in one domain, NaN when there were none
 * @param preferred jobs with a preferred level that started over several nodes
 * @param preferredInDomain the share of them in one domain, NaN when there were none
 * @param preferredMinimumInDomain the share of them whose leader's domain held their gang minimum
 *     (see {@link JobOutcome}), NaN when there were none
 */
public record TopologySummary(
    int required,
    double requiredInDomain,
    int preferred,
    double preferredInDomain,
    double preferredMinimumInDomain) {

  public static TopologySummary of(RunRecord run) {
    int required = 0;
    int requiredIn = 0;
    int preferred = 0;
    int preferredIn = 0;
    int preferredMinimumIn = 0;
    for (JobOutcome job : run.jobs()) {
      if (job.requiredInDomain() != null) {
        required++;
        requiredIn += job.requiredInDomain() ? 1 : 0;
      }
      if (job.preferredInDomain() != null) {
        preferred++;
        preferredIn += job.preferredInDomain() ? 1 : 0;
        preferredMinimumIn += Boolean.TRUE.equals(job.preferredMinimumInDomain()) ? 1 : 0;
      }
    }
    return new TopologySummary(
        required,
        required == 0 ? Double.NaN : (double) requiredIn / required,
        preferred,
        preferred == 0 ? Double.NaN : (double) preferredIn / preferred,
        preferred == 0 ? Double.NaN : (double) preferredMinimumIn / preferred);
  }
}
