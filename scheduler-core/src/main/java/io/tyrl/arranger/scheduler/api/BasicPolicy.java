package io.tyrl.arranger.scheduler.api;

/** How one job's pods are spread over nodes (seed 000 "BasicPolicy"). */
public enum BasicPolicy { GANG, BIN_PACK, LEADER_FIRST, MIN_FRAGMENT, JOB_AFFINITY, JOB_ANTI_AFFINITY;

  /** Parses the CRD spelling ("Gang", "BinPack", ...), case-insensitively and ignoring '_' and '-'. */
  public static BasicPolicy parse(String name) {
    return EnumNames.parse(BasicPolicy.class, name, "basicPolicy");
  }
}
