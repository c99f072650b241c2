package io.tyrl.arranger.simulator.trace;

import java.util.List;

/** What a trace CSV gave: the trace of its good rows, and the rows left out with why. */
public record CsvImport(Trace trace, List<CsvProblem> problems) {

  public CsvImport {
    problems = List.copyOf(problems);
  }
}
