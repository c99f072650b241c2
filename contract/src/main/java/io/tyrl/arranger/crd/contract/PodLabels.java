package io.tyrl.arranger.crd.contract;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The labels Arranger puts on every pod it creates. The job-name label is how a job's pods are
 * found (the controller's informer watches only pods carrying it); the others are for users and
 * selectors — a pod's slot is identified by its deterministic name ({@link PodNames}).
 */
public final class PodLabels {

  public static final String PREFIX = "arranger.tyrl.io/";
  public static final String JOB_NAME = PREFIX + "job-name";

  /** {@link #LEADER} or {@link #WORKER}. */
  public static final String ROLE = PREFIX + "role";

  public static final String WORKER_SET = PREFIX + "worker-set";
  public static final String WORKER_INDEX = PREFIX + "worker-index";
  public static final String LEADER = "leader";
  public static final String WORKER = "worker";

  private PodLabels() {}

  /** The labels of a job's leader pod. */
  public static Map<String, String> ofLeader(String jobName) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(JOB_NAME, jobName);
    labels.put(ROLE, LEADER);
    return labels;
  }

  /** The labels of a job's worker pod. */
  public static Map<String, String> ofWorker(String jobName, String workerSet, int index) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(JOB_NAME, jobName);
    labels.put(ROLE, WORKER);
    labels.put(WORKER_SET, workerSet);
    labels.put(WORKER_INDEX, Integer.toString(index));
    return labels;
  }
}
