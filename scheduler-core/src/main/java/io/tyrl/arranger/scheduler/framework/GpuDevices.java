package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.TaskStatus;
import java.util.Arrays;
import java.util.Collection;

/**
 * One node's GPUs as devices, each counted in milli-GPU ({@value #WHOLE} is one whole GPU): how
 * much of each is held by placed pods (those being released included, until they are gone), how
 * much of that is being released, and how much pipelined pods claim for when it is.
 *
 * <p>The rule every placement keeps: a pod asking for a fraction of a GPU (a request below {@value
 * #WHOLE}m) goes on one device with that much free; a pod asking for whole GPUs ({@code n × }
 * {@value #WHOLE}m) takes {@code n} devices nothing holds, so it never shares a device. A request
 * above one GPU that is not whole is refused before it gets here ({@link #isValidRequest}).
 */
public final class GpuDevices {

  /** One whole GPU in milli-GPU. */
  public static final long WHOLE = 1000;

  private final long[] held;
  private final long[] releasing;
  private final long[] pipelined;
  private long changes;
  // The predicates ask fitsNow of every node for every pod: kept up to date by every change, the
  // answer reads two fields instead of three arrays.
  private int wholeFreeNow;
  private long mostFreeNow;

  /**
   * {@code allocatableMilli / 1000} devices; {@code otherUsedMilli} (pods the snapshot's jobs do
   * not account for, which the device plugin gave whole devices) fills whole devices from the
   * first, and {@code otherReleasingMilli} of them are being released.
   */
  GpuDevices(long allocatableMilli, long otherUsedMilli, long otherReleasingMilli) {
    int count = (int) Math.max(0, allocatableMilli / WHOLE);
    held = new long[count];
    releasing = new long[count];
    pipelined = new long[count];
    int busy = (int) Math.min(count, (otherUsedMilli + WHOLE - 1) / WHOLE);
    int leaving = (int) Math.min(busy, (otherReleasingMilli + WHOLE - 1) / WHOLE);
    for (int d = 0; d < busy; d++) {
      held[d] = WHOLE;
      if (d < leaving) {
        releasing[d] = WHOLE;
      }
    }
    recountFreeNow();
  }

  private void recountFreeNow() {
    int whole = 0;
    long most = 0;
    for (int d = 0; d < held.length; d++) {
      long free = freeNow(d);
      if (free == WHOLE) {
        whole++;
      }
      most = Math.max(most, free);
    }
    wholeFreeNow = whole;
    mostFreeNow = most;
  }

  /**
   * A GPU request the device rule can place: none, a fraction of one GPU, or whole GPUs. {@code
   * 1500m} is neither: no single device holds it and it cannot be split across devices.
   */
  public static boolean isValidRequest(long milli) {
    return milli >= 0 && (milli < WHOLE || milli % WHOLE == 0);
  }

  /** True for a request of part of one GPU (it shares a device). */
  public static boolean isFraction(long milli) {
    return milli > 0 && milli < WHOLE;
  }

  public int count() {
    return held.length;
  }

  /** Milli-GPU of device {@code d} held now (by pods running or being released). */
  public long held(int d) {
    return held[d];
  }

  /** Milli-GPU of device {@code d} free now, pipelined claims taken off. */
  public long freeNow(int d) {
    return WHOLE - held[d] - pipelined[d];
  }

  /** Milli-GPU of device {@code d} free once what is being released is gone, after claims. */
  public long freeLater(int d) {
    return WHOLE - held[d] + releasing[d] - pipelined[d];
  }

  /** Devices nothing holds or claims now. */
  public int wholeFreeNow() {
    return wholeFreeNow;
  }

  /** True when a pod asking {@code milli} fits on the devices as they are now. */
  public boolean fitsNow(long milli) {
    if (milli <= 0) {
      return true;
    }
    return isFraction(milli) ? mostFreeNow >= milli : wholeFreeNow >= milli / WHOLE;
  }

  /** True when a pod asking {@code milli} fits once what is being released is gone. */
  public boolean fitsLater(long milli) {
    return fits(milli, true, null);
  }

  /**
   * Whether {@link #choose} would find devices, without choosing: the predicates ask it of every
   * node for every pod, and the first device that holds the pod answers it.
   */
  private boolean fits(long milli, boolean later, long[] freed) {
    if (milli <= 0) {
      return true;
    }
    boolean fraction = isFraction(milli);
    long wanted = fraction ? 1 : milli / WHOLE;
    int found = 0;
    for (int d = 0; d < held.length; d++) {
      long free = free(d, later, freed);
      if ((fraction ? free >= milli : free == WHOLE) && ++found >= wanted) {
        return true;
      }
    }
    return false;
  }

  /**
   * Device {@code d}'s free milli-GPU, now or once releases are done, plus what {@code freed} adds.
   */
  private long free(int d, boolean later, long[] freed) {
    return (later ? freeLater(d) : freeNow(d)) + (freed == null ? 0 : freed[d]);
  }

  /**
   * How many pods asking {@code milli} each the devices could still take once releases are done.
   */
  long podsFittingLater(long milli) {
    long fitting = 0;
    for (int d = 0; d < held.length; d++) {
      long free = freeLater(d);
      if (isFraction(milli)) {
        fitting += Math.max(0, free) / milli;
      } else if (free == WHOLE) {
        fitting++;
      }
    }
    return isFraction(milli) ? fitting : fitting / Math.max(1, milli / WHOLE);
  }

  /**
   * The devices a pod asking {@code milli} would take, or null when it does not fit: for a
   * fraction, the device with the least free share that holds it (best fit, so whole devices stay
   * whole as long as a shared one will do; the lowest index on a tie); for whole GPUs, the first
   * devices nothing holds or claims.
   *
   * @param later judge by what is free once releasing pods are gone (for a pipelined pod)
   */
  public int[] choose(long milli, boolean later) {
    return choose(milli, later, null);
  }

  /**
   * True when a pod asking {@code milli} would fit once what is being released is gone and the
   * {@code leaving} pods (victims being planned, all on this node) are gone too.
   */
  public boolean fitsLaterWithout(Collection<TaskState> leaving, int gpuDimension, long milli) {
    long[] freed = new long[held.length];
    for (TaskState task : leaving) {
      long share = task.request(gpuDimension);
      if (share > 0 && task.status() == TaskStatus.ALLOCATED) {
        for (int d : task.gpuDevices()) {
          freed[d] += sharePerDevice(share);
        }
      }
    }
    return fits(milli, true, freed);
  }

  private int[] choose(long milli, boolean later, long[] freed) {
    if (milli <= 0) {
      return new int[0];
    }
    if (isFraction(milli)) {
      int best = -1;
      long bestFree = Long.MAX_VALUE;
      for (int d = 0; d < held.length; d++) {
        long free = free(d, later, freed);
        if (free >= milli && free < bestFree) {
          best = d;
          bestFree = free;
        }
      }
      return best < 0 ? null : new int[] {best};
    }
    int wanted = (int) (milli / WHOLE);
    int[] chosen = new int[wanted];
    int found = 0;
    for (int d = 0; d < held.length && found < wanted; d++) {
      if (free(d, later, freed) == WHOLE) {
        chosen[found++] = d;
      }
    }
    return found == wanted ? chosen : null;
  }

  /**
   * Where a pod placed from the snapshot, whose device is not recorded, is counted: as {@link
   * #choose} would place it now, else (a node over-committed by pods the scheduler did not place)
   * on the least held devices, so the ledger stays whole.
   */
  int[] chooseForExisting(long milli) {
    int[] chosen = choose(milli, false);
    if (chosen != null) {
      return chosen;
    }
    Integer[] order = new Integer[held.length];
    for (int d = 0; d < order.length; d++) {
      order[d] = d;
    }
    Arrays.sort(order, (a, b) -> Long.compare(held[a] + pipelined[a], held[b] + pipelined[b]));
    int wanted = (int) Math.min(held.length, Math.max(1, milli / WHOLE));
    int[] least = new int[wanted];
    for (int i = 0; i < wanted; i++) {
      least[i] = order[i];
    }
    return least;
  }

  /** The share of each chosen device a pod asking {@code milli} holds. */
  public static long sharePerDevice(long milli) {
    return isFraction(milli) ? milli : WHOLE;
  }

  void hold(int[] devices, long milli) {
    changes++;
    for (int d : devices) {
      held[d] += sharePerDevice(milli);
    }
    recountFreeNow();
  }

  void unhold(int[] devices, long milli) {
    changes++;
    for (int d : devices) {
      held[d] -= sharePerDevice(milli);
    }
    recountFreeNow();
  }

  void claim(int[] devices, long milli) {
    changes++;
    for (int d : devices) {
      pipelined[d] += sharePerDevice(milli);
    }
    recountFreeNow();
  }

  void unclaim(int[] devices, long milli) {
    changes++;
    for (int d : devices) {
      pipelined[d] -= sharePerDevice(milli);
    }
    recountFreeNow();
  }

  void release(int[] devices, long milli) {
    changes++;
    for (int d : devices) {
      releasing[d] += sharePerDevice(milli);
    }
  }

  void unrelease(int[] devices, long milli) {
    changes++;
    for (int d : devices) {
      releasing[d] -= sharePerDevice(milli);
    }
  }

  /**
   * How many times a device's share changed: a reader's cache of what it derived is stale after.
   */
  long changes() {
    return changes;
  }

  /** Each device's free milli-GPU now, a copy: what a scoring plugin reads. */
  public long[] freeNowByDevice() {
    long[] free = new long[held.length];
    for (int d = 0; d < free.length; d++) {
      free[d] = freeNow(d);
    }
    return free;
  }
}
