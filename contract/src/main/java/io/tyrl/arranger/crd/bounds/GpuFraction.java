package io.tyrl.arranger.crd.bounds;

import io.tyrl.arranger.crd.contract.PodLabels;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * A pod template's share of one GPU: the annotation {@value #ANNOTATION} on the template of the
 * leader or of a worker set, a decimal above 0 and below 1 with at most three decimals ({@code
 * "0.25"}), on a template that asks no {@code nvidia.com/gpu}. Read and checked here once, for both
 * services.
 *
 * <p>An annotation, as KAI-Scheduler's and Run:ai's users already write ({@code gpu-fraction:
 * "0.5"}), rather than a resource request: an extended resource such as {@code nvidia.com/gpu} must
 * be a whole number, and asking one whole device as HAMi does would make the stock device plugin
 * give the pod the device alone.
 */
public final class GpuFraction {

  public static final String ANNOTATION = PodLabels.PREFIX + "gpu-fraction";

  /** The GPU resource a fractional template must not also ask for. */
  public static final String GPU_RESOURCE = "nvidia.com/gpu";

  private GpuFraction() {}

  /**
   * The share in milli-GPU (1–999).
   *
   * @throws IllegalArgumentException naming the annotation and the value when it is not a share
   */
  public static long milli(String value) {
    Optional<String> problem = problem(value);
    if (problem.isPresent()) {
      throw new IllegalArgumentException(problem.get());
    }
    return new BigDecimal(value.trim()).movePointRight(3).longValueExact();
  }

  /** Why {@code value} is not a share of one GPU, naming the annotation and the value; or empty. */
  public static Optional<String> problem(String value) {
    String shown = "annotation " + ANNOTATION + " \"" + value + "\": ";
    BigDecimal share;
    try {
      share = new BigDecimal(value == null ? "" : value.trim());
    } catch (NumberFormatException e) {
      return Optional.of(shown + "not a decimal number (write a share of one GPU, e.g. \"0.25\")");
    }
    if (share.signum() <= 0 || share.compareTo(BigDecimal.ONE) >= 0) {
      return Optional.of(
          shown
              + "a share of one GPU is above 0 and below 1 (ask whole GPUs with "
              + GPU_RESOURCE
              + ")");
    }
    if (share.stripTrailingZeros().scale() > 3) {
      return Optional.of(shown + "at most three decimals (GPUs are shared in thousandths)");
    }
    return Optional.empty();
  }
}
