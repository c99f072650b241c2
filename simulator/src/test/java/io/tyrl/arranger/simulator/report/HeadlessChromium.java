package io.tyrl.arranger.simulator.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's Chromium, headless, for reading what a page drew. {@code scripts/chromium.sh} installs
 * it when missing. The flags keep it off the network (this machine's network is closed: without
 * them it waits for background services until it is killed).
 */
final class HeadlessChromium {

  private static final Pattern CANVAS = Pattern.compile("<canvas\\b[^>]*>");
  private static final Pattern ID = Pattern.compile("\\bid=\"([^\"]*)\"");
  private static final Pattern POINTS = Pattern.compile("\\bdata-rendered-points=\"(\\d+)\"");
  private static final Pattern PAINTED = Pattern.compile("\\bdata-painted-pixels=\"(\\d+)\"");
  private static final Pattern CHARTS_RENDERED =
      Pattern.compile("<body\\b[^>]*\\bdata-charts-rendered=\"(\\d+)\"");

  private final Path browser;

  private HeadlessChromium(Path browser) {
    this.browser = browser;
  }

  /**
   * Runs scripts/chromium.sh (which installs Chromium when it is missing) and uses the browser it
   * names.
   */
  static HeadlessChromium provision() throws IOException, InterruptedException {
    Path root = projectRoot();
    Path log = Files.createTempFile("chromium-provision", ".log");
    Process process =
        new ProcessBuilder("bash", root.resolve("scripts/chromium.sh").toString(), "provision")
            .redirectError(log.toFile())
            .start();
    String out =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (!process.waitFor(15, TimeUnit.MINUTES) || process.exitValue() != 0 || out.isEmpty()) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "scripts/chromium.sh could not provide Chromium (Debian's chromium package; "
              + "install it with apt-get install chromium): "
              + Files.readString(log));
    }
    String[] lines = out.split("\n");
    return new HeadlessChromium(Path.of(lines[lines.length - 1].strip()));
  }

  /** The DOM after the page's scripts ran, as Chromium serializes it. */
  String dumpDom(Path html, Duration timeout) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("chromium-profile");
    Path out = Files.createTempFile("chromium-dom", ".html");
    Path err = Files.createTempFile("chromium-stderr", ".log");
    Process process =
        new ProcessBuilder(
                browser.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--virtual-time-budget=10000",
                "--dump-dom",
                html.toUri().toString())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new IllegalStateException(
          "Chromium did not finish within " + timeout + ": " + tail(err));
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          "Chromium exited with " + process.exitValue() + ": " + tail(err));
    }
    return Files.readString(out);
  }

  /** What each canvas drew, by id: {points, painted pixels}; -1 where the page set no figure. */
  static Map<String, long[]> drawnCharts(String dom) {
    Map<String, long[]> charts = new LinkedHashMap<>();
    Matcher canvas = CANVAS.matcher(dom);
    while (canvas.find()) {
      String tag = canvas.group();
      Matcher id = ID.matcher(tag);
      charts.put(
          id.find() ? id.group(1) : "?", new long[] {figure(POINTS, tag), figure(PAINTED, tag)});
    }
    return charts;
  }

  /** The body's count of charts drawn, -1 when the page's script never set it. */
  static long chartsRendered(String dom) {
    Matcher matcher = CHARTS_RENDERED.matcher(dom);
    return matcher.find() ? Long.parseLong(matcher.group(1)) : -1;
  }

  private static long figure(Pattern pattern, String tag) {
    Matcher matcher = pattern.matcher(tag);
    return matcher.find() ? Long.parseLong(matcher.group(1)) : -1;
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
  }

  private static Path projectRoot() {
    String configured = System.getProperty("arranger.projectRoot");
    Path dir = configured != null ? Path.of(configured) : Path.of("").toAbsolutePath();
    for (Path candidate = dir.toAbsolutePath();
        candidate != null;
        candidate = candidate.getParent()) {
      if (Files.isRegularFile(candidate.resolve("scripts/chromium.sh"))) {
        return candidate;
      }
    }
    throw new IllegalStateException("no scripts/chromium.sh in " + dir + " or above");
  }
}
