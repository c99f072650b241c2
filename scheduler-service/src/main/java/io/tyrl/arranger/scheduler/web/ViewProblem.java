package io.tyrl.arranger.scheduler.web;

import org.springframework.http.HttpStatus;

/** A refusal of the view's API, answered as {@code {"error": message}} with its status. */
final class ViewProblem extends RuntimeException {

  private final HttpStatus status;

  ViewProblem(HttpStatus status, String message) {
    super(message);
    this.status = status;
  }

  HttpStatus status() {
    return status;
  }
}
