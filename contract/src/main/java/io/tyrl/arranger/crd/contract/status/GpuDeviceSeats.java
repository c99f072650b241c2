package io.tyrl.arranger.crd.contract.status;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code status.gpuDevices}: pod name → the index, among its node's GPUs, of the device whose share
 * the scheduler gave the pod. Only pods asking part of one GPU have an entry; the index names one
 * of the node's {@code nvidia.com/gpu} devices as the scheduler counts them, from 0.
 */
public final class GpuDeviceSeats {

  private GpuDeviceSeats() {}

  /**
   * The seats as stored; an entry that is not a whole number from 0 up is left out, so a garbled
   * entry makes the scheduler seat that pod by its rule again instead of failing the job's read.
   */
  public static Map<String, Integer> decode(Object seats) {
    Map<String, Integer> decoded = new LinkedHashMap<>();
    PlainValues.map(seats)
        .forEach(
            (pod, device) -> {
              if (device instanceof Number number
                  && number.doubleValue() == Math.rint(number.doubleValue())
                  && number.doubleValue() >= 0
                  && number.doubleValue() <= Integer.MAX_VALUE) {
                decoded.put(String.valueOf(pod), number.intValue());
              }
            });
    return decoded;
  }

  /**
   * A merge patch of single seats: pod → device, or pod → {@code null} once the pod holds no share
   * on that node. Keys not named are left as they are.
   */
  public static Map<String, Object> patch(Map<String, Integer> changes) {
    return new LinkedHashMap<>(changes);
  }
}
