package io.tyrl.arranger.crd.contract;

/**
 * The labels Arranger puts on every pod it creates. The job-name label is how a job's pods are
 * found (the controller's informer watches only pods carrying it); the others are for users and
 * selectors — a pod's slot is identified by its deterministic name ({@link PodNames}).
 */
public final class PodLabels {

  public static final String PREFIX = "arranger.tyrl.io/";
  public static final String JOB_NAME = PREFIX + "job-name";
  /** {@code leader} or {@code worker}. */
  public static final String ROLE = PREFIX + "role";
  public static final String WORKER_SET = PREFIX + "worker-set";
  public static final String WORKER_INDEX = PREFIX + "worker-index";

  private PodLabels() {}
}
