package io.tyrl.arranger.scheduler.web;

import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** The view's refusals as {@code {"error": …}}, so a caller sees why and never partial data. */
@RestControllerAdvice(assignableTypes = {ViewApi.class, SessionApi.class})
class ViewProblems {

  @ExceptionHandler(ViewProblem.class)
  ResponseEntity<Map<String, String>> refused(ViewProblem problem) {
    return ResponseEntity.status(problem.status()).body(Map.of("error", problem.getMessage()));
  }

  @ExceptionHandler(KubernetesReviews.ReviewUnavailable.class)
  ResponseEntity<Map<String, String>> unavailable(KubernetesReviews.ReviewUnavailable problem) {
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .body(
            Map.of("error", "the API server could not check the request: " + problem.getMessage()));
  }
}
