package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.framework.JobNote;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.PlacementSummary;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places the minimums of a gang group's members in one statement: every member's minimum is met in
 * this cycle, or the statement is discarded and no member keeps anything from it. Members' elastic
 * pods are left to the allocate action, one at a time like any job's.
 */
final class GangGroupPlacer {

  private final Session session;
  private final JobPlacer placer;

  GangGroupPlacer(Session session, JobPlacer placer) {
    this.session = session;
    this.placer = placer;
  }

  /** Returns true when the group's minimums were placed (the statement was kept). */
  boolean place(String group, List<JobState> members) {
    Statement statement = session.newStatement();
    Map<JobState, JobPlacer.Outcome> outcomes = new LinkedHashMap<>();
    List<String> blocking = new ArrayList<>();
    try {
      for (JobState member : members) {
        if (member.isSchedulable() && member.hasPendingTasks()) {
          JobPlacer.Outcome outcome =
              placer.checkRoom(member).orElseGet(() -> placer.placeMinimum(member, statement));
          outcomes.put(member, outcome);
          if (outcome instanceof JobPlacer.NeverFits never) {
            statement.discard();
            session.failJob(member, ReasonCode.NEVER_FITS, never.reason());
            blocking.add(member.key());
            break;
          }
        }
        if (member.isFailed() || !placer.isReady(member)) {
          if (!blocking.contains(member.key())) {
            blocking.add(member.key());
          }
        }
      }
    } catch (RuntimeException e) {
      if (!statement.isClosed()) {
        statement.discard();
      }
      for (JobState member : members) {
        session.failJob(
            member, ReasonCode.INVALID_JOB, "scheduling gang group " + group + " failed: " + e);
      }
      return false;
    }
    if (blocking.isEmpty()) {
      statement.commit();
      for (JobState member : members) {
        JobPlacer.Outcome outcome = outcomes.get(member);
        if (!member.isFullyPlaced() && outcome != null) {
          JobPlacer.note(member, PlacementSummary.describe(member) + outcome.explanation());
        }
      }
      return true;
    }
    if (!statement.isClosed()) {
      statement.discard();
    }
    for (JobState member : members) {
      if (member.isFailed()) {
        continue;
      }
      JobPlacer.Outcome outcome = outcomes.get(member);
      String own = outcome == null ? "" : outcome.explanation();
      member.note(
          new JobNote(
              ReasonCode.GANG_GROUP_UNSATISFIED,
              "gang group "
                  + group
                  + " not placed: "
                  + String.join(", ", blocking)
                  + " cannot meet its minimum in this cycle"
                  + own));
    }
    return false;
  }
}
