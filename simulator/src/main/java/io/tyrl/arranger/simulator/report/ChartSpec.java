package io.tyrl.arranger.simulator.report;

import java.util.List;

/**
 * One chart of the report, handed to Chart.js: a line chart over a linear x axis ({@code points}
 * datasets) or a bar chart over {@code categories}.
 */
record ChartSpec(
    String id,
    String title,
    String type,
    String xLabel,
    String yLabel,
    List<String> categories,
    List<Dataset> datasets) {

  ChartSpec {
    categories = List.copyOf(categories);
    datasets = List.copyOf(datasets);
  }

  static ChartSpec line(
      String id, String title, String xLabel, String yLabel, List<Dataset> datasets) {
    return new ChartSpec(id, title, "line", xLabel, yLabel, List.of(), datasets);
  }

  static ChartSpec bar(
      String id, String title, String yLabel, List<String> categories, List<Dataset> datasets) {
    return new ChartSpec(id, title, "bar", "", yLabel, categories, datasets);
  }

  /** x,y pairs for a line chart (xs), or one value per category for a bar chart (xs empty). */
  record Dataset(String label, double[] xs, double[] ys, boolean dashed, boolean stepped) {}

  String toJson() {
    StringBuilder out = new StringBuilder("{");
    out.append("\"id\":")
        .append(Json.string(id))
        .append(",\"title\":")
        .append(Json.string(title))
        .append(",\"type\":")
        .append(Json.string(type))
        .append(",\"xLabel\":")
        .append(Json.string(xLabel))
        .append(",\"yLabel\":")
        .append(Json.string(yLabel))
        .append(",\"categories\":[");
    for (int i = 0; i < categories.size(); i++) {
      out.append(i > 0 ? "," : "").append(Json.string(categories.get(i)));
    }
    out.append("],\"datasets\":[");
    for (int d = 0; d < datasets.size(); d++) {
      Dataset dataset = datasets.get(d);
      out.append(d > 0 ? "," : "")
          .append("{\"label\":")
          .append(Json.string(dataset.label()))
          .append(",\"dashed\":")
          .append(dataset.dashed())
          .append(",\"stepped\":")
          .append(dataset.stepped())
          .append(",\"data\":[");
      for (int i = 0; i < dataset.ys().length; i++) {
        out.append(i > 0 ? "," : "");
        if (dataset.xs().length > 0) {
          out.append("{\"x\":")
              .append(Json.number(dataset.xs()[i]))
              .append(",\"y\":")
              .append(Json.number(dataset.ys()[i]))
              .append('}');
        } else {
          out.append(Json.number(dataset.ys()[i]));
        }
      }
      out.append("]}");
    }
    return out.append("]}").toString();
  }
}
