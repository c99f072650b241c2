package io.tyrl.arranger.simulator.trace;

/**
 * A row of a trace CSV that was left out: its line number (1 = the header), the column at fault
 * (empty when the row as a whole is wrong) and why.
 */
public record CsvProblem(int line, String column, String message) {

  @Override
  public String toString() {
    return "line " + line + (column.isEmpty() ? "" : ", column " + column) + ": " + message;
  }
}
