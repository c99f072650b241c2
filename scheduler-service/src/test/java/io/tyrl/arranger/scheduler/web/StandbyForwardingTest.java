package io.tyrl.arranger.scheduler.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * A standby passes the view's API requests on to the leader and its answers back, headers and body
 * as they are but for the hop-by-hop ones; a request already passed on, or one reaching the leader,
 * is answered where it arrives; a leader nobody can reach is a 503 that says why.
 */
class StandbyForwardingTest {

  /** What the fake leader received. */
  private record Received(
      String method, String uri, Map<String, List<String>> headers, String body) {}

  private final AtomicReference<Received> received = new AtomicReference<>();
  private HttpServer leader;

  @BeforeEach
  void startLeader() throws Exception {
    leader = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    leader.createContext(
        "/",
        exchange -> {
          received.set(
              new Received(
                  exchange.getRequestMethod(),
                  exchange.getRequestURI().toString(),
                  Map.copyOf(exchange.getRequestHeaders()),
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
          byte[] answer = "{\"jobs\":[]}".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Set-Cookie", "ARRANGER_VIEW_SESSION=s1; HttpOnly");
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.getResponseHeaders().add(StandbyForwarding.ANSWERED_BY, "scheduler-a");
          exchange.sendResponseHeaders(201, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    leader.start();
  }

  @AfterEach
  void stopLeader() {
    leader.stop(0);
  }

  private URI leaderBase() {
    return URI.create("http://127.0.0.1:" + leader.getAddress().getPort());
  }

  private static MockHttpServletRequest request(String method, String uri) {
    MockHttpServletRequest request = new MockHttpServletRequest(method, uri);
    request.setServerName("arranger-scheduler-view");
    return request;
  }

  @Test
  void aStandbyPassesTheRequestOnAndTheLeadersAnswerBack() throws Exception {
    StandbyForwarding forwarding =
        new StandbyForwarding(
            () -> false, "scheduler-b", () -> new LeaderRoute.Leader("scheduler-a", leaderBase()));
    MockHttpServletRequest request = request("POST", "/api/v1/session");
    request.setQueryString("queue=a%20b");
    request.addHeader("Cookie", "ARRANGER_VIEW_SESSION=s0");
    request.addHeader("X-CSRF-TOKEN", "t0");
    request.addHeader("Authorization", "Bearer abc");
    request.addHeader("Host", "arranger-scheduler-view:8080");
    request.addHeader("Connection", "keep-alive");
    request.setContent("{\"token\":\"abc\"}".getBytes(StandardCharsets.UTF_8));
    MockHttpServletResponse response = new MockHttpServletResponse();
    MockFilterChain chain = new MockFilterChain();

    forwarding.doFilter(request, response, chain);

    assertThat(chain.getRequest()).as("not answered on the standby").isNull();
    Received passed = received.get();
    assertThat(passed.method()).isEqualTo("POST");
    assertThat(passed.uri()).isEqualTo("/api/v1/session?queue=a%20b");
    assertThat(passed.body()).isEqualTo("{\"token\":\"abc\"}");
    assertThat(passed.headers().get("Cookie")).containsExactly("ARRANGER_VIEW_SESSION=s0");
    assertThat(passed.headers().get("X-csrf-token")).containsExactly("t0");
    assertThat(passed.headers().get("Authorization")).containsExactly("Bearer abc");
    assertThat(passed.headers().get("X-arranger-forwarded-by")).containsExactly("scheduler-b");
    assertThat(passed.headers().get("Host"))
        .as("the leader's own address, not the Service's")
        .containsExactly("127.0.0.1:" + leader.getAddress().getPort());
    assertThat(response.getStatus()).isEqualTo(201);
    assertThat(response.getHeaders("Set-Cookie"))
        .containsExactly("ARRANGER_VIEW_SESSION=s1; HttpOnly");
    assertThat(response.getHeader(StandbyForwarding.ANSWERED_BY)).isEqualTo("scheduler-a");
    assertThat(response.getContentAsString()).isEqualTo("{\"jobs\":[]}");
  }

  @Test
  void theLeaderAndARequestAlreadyPassedOnAreAnsweredWhereTheyArrive() throws Exception {
    StandbyForwarding onLeader =
        new StandbyForwarding(
            () -> true, "scheduler-a", () -> new LeaderRoute.Leader("scheduler-b", leaderBase()));
    MockFilterChain chain = new MockFilterChain();
    MockHttpServletResponse response = new MockHttpServletResponse();
    onLeader.doFilter(request("GET", "/api/v1/pending"), response, chain);
    assertThat(chain.getRequest()).isNotNull();
    assertThat(response.getHeader(StandbyForwarding.ANSWERED_BY)).isEqualTo("scheduler-a");

    StandbyForwarding onStandby =
        new StandbyForwarding(
            () -> false, "scheduler-b", () -> new LeaderRoute.Leader("scheduler-a", leaderBase()));
    MockHttpServletRequest passedOn = request("GET", "/api/v1/pending");
    passedOn.addHeader(StandbyForwarding.FORWARDED_BY, "scheduler-a");
    chain = new MockFilterChain();
    onStandby.doFilter(passedOn, new MockHttpServletResponse(), chain);
    assertThat(chain.getRequest()).as("never passed back").isNotNull();

    chain = new MockFilterChain();
    new StandbyForwarding(() -> false, "scheduler-b", LeaderRoute.Here::new)
        .doFilter(request("GET", "/api/v1/pending"), new MockHttpServletResponse(), chain);
    assertThat(chain.getRequest()).as("the Lease names this replica already").isNotNull();

    chain = new MockFilterChain();
    onStandby.doFilter(request("GET", "/ui/view.js"), new MockHttpServletResponse(), chain);
    assertThat(chain.getRequest()).as("the page's assets are everyone's").isNotNull();
    assertThat(received.get()).as("nothing reached the leader").isNull();
  }

  @Test
  void noLeaderToReachIsA503ThatSaysWhy() throws Exception {
    MockHttpServletResponse response = new MockHttpServletResponse();
    new StandbyForwarding(
            () -> false,
            "scheduler-b",
            () -> new LeaderRoute.Unreachable("no replica holds the Lease \"x\" yet"))
        .doFilter(request("GET", "/api/v1/pending"), response, new MockFilterChain());
    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(JsonParser.parseString(response.getContentAsString()).getAsJsonObject())
        .satisfies(
            body ->
                assertThat(body.get("error").getAsString())
                    .isEqualTo("no replica holds the Lease \"x\" yet"));

    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    response = new MockHttpServletResponse();
    new StandbyForwarding(
            () -> false,
            "scheduler-b",
            () -> new LeaderRoute.Leader("scheduler-a", URI.create("http://127.0.0.1:" + closed)))
        .doFilter(request("GET", "/api/v1/pending"), response, new MockFilterChain());
    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(response.getContentAsString())
        .contains("the leader scheduler-a at http://127.0.0.1:" + closed + " did not answer");
    assertThat(response.getHeader(StandbyForwarding.ANSWERED_BY)).isEqualTo("scheduler-b");
  }

  @Test
  void aBodyAboveTheLimitIsRefusedBeforeAnythingIsPassedOn() throws Exception {
    MockHttpServletRequest request = request("POST", "/api/v1/session");
    request.setContent(new byte[StandbyForwarding.BODY_LIMIT + 1]);
    MockHttpServletResponse response = new MockHttpServletResponse();
    new StandbyForwarding(
            () -> false, "scheduler-b", () -> new LeaderRoute.Leader("scheduler-a", leaderBase()))
        .doFilter(request, response, new MockFilterChain());
    assertThat(response.getStatus()).isEqualTo(413);
    assertThat(received.get()).isNull();
  }
}
