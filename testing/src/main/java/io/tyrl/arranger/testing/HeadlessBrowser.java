package io.tyrl.arranger.testing;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's Chromium, headless, driven over the DevTools protocol (a WebSocket, with the JDK's
 * client): evaluate script in the page, take screenshots, and record every JavaScript dialog the
 * page opens (an {@code alert} would mean script ran from data). {@code scripts/chromium.sh}
 * installs Chromium when it is missing. The flags keep it off the network.
 */
public final class HeadlessBrowser implements AutoCloseable {

  private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(10);

  private final Process process;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonObject>> answers = new ConcurrentHashMap<>();
  private final List<String> dialogs = new CopyOnWriteArrayList<>();

  private HeadlessBrowser(Process process, WebSocket socket) {
    this.process = process;
    this.socket = socket;
  }

  /** Starts Chromium on {@code url} and attaches to its page. */
  public static HeadlessBrowser open(String url) throws Exception {
    Path root = ProjectRoot.find();
    Process provision =
        new ProcessBuilder("bash", root.resolve("scripts/chromium.sh").toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String out = new String(provision.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!provision.waitFor(15, TimeUnit.MINUTES) || provision.exitValue() != 0) {
      throw new IllegalStateException("scripts/chromium.sh could not provide Chromium");
    }
    String[] lines = out.strip().split("\n");
    Path profile = Files.createTempDirectory("chromium-profile");
    Process process =
        new ProcessBuilder(
                lines[lines.length - 1].strip(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=1280,1000",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                url)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      String browserSocket = awaitListening(process);
      int port = URI.create(browserSocket).getPort();
      HttpClient http = HttpClient.newHttpClient();
      URI targets = URI.create("http://127.0.0.1:" + port + "/json/list");
      // The page's target appears a moment after the browser listens.
      String pageSocket = awaitPageSocket(http, targets);
      HeadlessBrowser[] self = new HeadlessBrowser[1];
      WebSocket socket =
          http.newWebSocketBuilder()
              .buildAsync(URI.create(pageSocket), new Listener(() -> self[0]))
              .get(30, TimeUnit.SECONDS);
      self[0] = new HeadlessBrowser(process, socket);
      self[0].send("Page.enable", new JsonObject());
      self[0].send("Runtime.enable", new JsonObject());
      return self[0];
    } catch (Exception e) {
      process.destroyForcibly();
      throw e;
    }
  }

  private static String awaitPageSocket(HttpClient http, URI targets) throws Exception {
    Instant deadline = Instant.now().plus(PAGE_TIMEOUT);
    while (true) {
      String socket = pageSocket(http, targets);
      if (socket != null) {
        return socket;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("Chromium showed no page within " + PAGE_TIMEOUT);
      }
      Thread.sleep(100);
    }
  }

  private static String pageSocket(HttpClient http, URI targets) throws Exception {
    String list =
        http.send(HttpRequest.newBuilder(targets).build(), HttpResponse.BodyHandlers.ofString())
            .body();
    for (var target : JsonParser.parseString(list).getAsJsonArray()) {
      JsonObject page = target.getAsJsonObject();
      if (page.get("type").getAsString().equals("page")) {
        return page.get("webSocketDebuggerUrl").getAsString();
      }
    }
    return null;
  }

  private static String awaitListening(Process process) throws IOException {
    BufferedReader err =
        new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
    List<String> seen = new ArrayList<>();
    String line;
    while ((line = err.readLine()) != null) {
      Matcher matcher = LISTENING.matcher(line);
      if (matcher.find()) {
        // Keep draining stderr, so that Chromium never blocks on a full pipe.
        Thread drain =
            new Thread(
                () -> {
                  try {
                    while (err.readLine() != null) {}
                  } catch (IOException ignored) {
                    // the browser has ended
                  }
                });
        drain.setDaemon(true);
        drain.start();
        return matcher.group(1);
      }
      seen.add(line);
    }
    throw new IllegalStateException("Chromium ended before listening: " + seen);
  }

  /** The value of a JavaScript expression in the page (promises awaited), as JSON text. */
  public String evaluate(String expression) throws Exception {
    JsonObject params = new JsonObject();
    params.addProperty("expression", expression);
    params.addProperty("returnByValue", true);
    params.addProperty("awaitPromise", true);
    JsonObject result = send("Runtime.evaluate", params);
    if (result.has("exceptionDetails")) {
      throw new IllegalStateException("script failed: " + result.get("exceptionDetails"));
    }
    JsonObject value = result.getAsJsonObject("result");
    return value.has("value") ? value.get("value").toString() : "null";
  }

  /** The whole page as a PNG. */
  public void screenshot(Path file) throws Exception {
    JsonObject params = new JsonObject();
    params.addProperty("format", "png");
    params.addProperty("captureBeyondViewport", true);
    JsonObject result = send("Page.captureScreenshot", params);
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, Base64.getDecoder().decode(result.get("data").getAsString()));
  }

  /** The messages of every dialog (alert, confirm, prompt) the page opened so far. */
  public List<String> dialogs() {
    return List.copyOf(dialogs);
  }

  JsonObject send(String method, JsonObject params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonObject> answer = new CompletableFuture<>();
    answers.put(id, answer);
    JsonObject message = new JsonObject();
    message.addProperty("id", id);
    message.addProperty("method", method);
    message.add("params", params);
    socket.sendText(message.toString(), true).get(ANSWER_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    JsonObject reply = answer.get(ANSWER_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    if (reply.has("error")) {
      throw new IllegalStateException(method + " failed: " + reply.get("error"));
    }
    return reply.getAsJsonObject("result");
  }

  private void received(String text) {
    JsonObject message = JsonParser.parseString(text).getAsJsonObject();
    if (message.has("id")) {
      CompletableFuture<JsonObject> answer = answers.remove(message.get("id").getAsInt());
      if (answer != null) {
        answer.complete(message);
      }
    } else if ("Page.javascriptDialogOpening".equals(message.get("method").getAsString())) {
      dialogs.add(message.getAsJsonObject("params").get("message").getAsString());
      JsonObject dismiss = new JsonObject();
      dismiss.addProperty("id", ids.incrementAndGet());
      dismiss.addProperty("method", "Page.handleJavaScriptDialog");
      JsonObject params = new JsonObject();
      params.addProperty("accept", false);
      dismiss.add("params", params);
      socket.sendText(dismiss.toString(), true);
    }
  }

  private static final class Listener implements WebSocket.Listener {
    private final java.util.function.Supplier<HeadlessBrowser> browser;
    private final StringBuilder partial = new StringBuilder();

    Listener(java.util.function.Supplier<HeadlessBrowser> browser) {
      this.browser = browser;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String text = partial.toString();
        partial.setLength(0);
        HeadlessBrowser target = browser.get();
        if (target != null) {
          target.received(text);
        }
      }
      webSocket.request(1);
      return null;
    }
  }

  @Override
  public void close() {
    socket.abort();
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
