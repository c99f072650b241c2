package io.tyrl.arranger.scheduler.api;

/**
 * How a gang accumulates placements. STRICT: a job's placements in a cycle are discarded unless its
 * minimum is met in that cycle. NON_STRICT: placements are kept across cycles until the minimum is
 * met, which can deadlock gangs against each other (see the gang plugin for the bound).
 */
public enum GangMode {
  STRICT,
  NON_STRICT;

  public static GangMode parse(String name) {
    return EnumNames.parse(GangMode.class, name, "gang.mode");
  }
}
