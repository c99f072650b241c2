package io.tyrl.arranger.testing.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time and peak resident memory of a process, from Linux's /proc. */
final class ProcStat {

  private static final double TICKS_PER_SECOND = 100.0;

  private ProcStat() {}

  /** User + system CPU seconds the process has used so far (NaN when it cannot be read). */
  static double cpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // After "pid (comm) ", field 3 (state) is index 0; utime is field 14, stime field 15.
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** The process's peak resident set size (VmHWM) in MiB (NaN when it cannot be read). */
  static double peakRssMiB(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
        }
      }
    } catch (IOException | RuntimeException e) {
      // fall through
    }
    return Double.NaN;
  }

  static double totalCpuSeconds() {
    try {
      String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long sum = 0;
      for (int i = 1; i <= 8 && i < fields.length; i++) {
        if (i != 4 && i != 5) { // skip idle and iowait
          sum += Long.parseLong(fields[i]);
        }
      }
      return sum / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }
}
