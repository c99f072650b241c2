package io.tyrl.arranger.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository's root folder: from the {@code arranger.projectRoot} property, else found upwards.
 */
public final class ProjectRoot {

  private ProjectRoot() {}

  public static Path find() {
    String configured = System.getProperty("arranger.projectRoot");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured).toAbsolutePath();
    }
    Path start = Path.of("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("scripts/control-plane.sh"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no scripts/control-plane.sh in "
            + start
            + " or above it; set -Darranger.projectRoot to the Arranger checkout");
  }
}
