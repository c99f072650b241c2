package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.testing.MalformedTYJob.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MalformedTYJobsTest {

  @Test
  void theIndexListsEveryFileOfTheCorpusFolder() throws IOException {
    // Surefire runs in the module's folder; the index is what the classpath loader (and a jar)
    // relies on.
    try (Stream<Path> files =
        Files.list(Path.of("src/main/resources", MalformedTYJobs.DIRECTORY))) {
      List<String> yamlFiles =
          files
              .map(path -> path.getFileName().toString())
              .filter(name -> name.endsWith(".yaml"))
              .sorted()
              .toList();

      assertThat(MalformedTYJobs.indexedFiles()).containsExactlyInAnyOrderElementsOf(yamlFiles);
    }
  }

  @Test
  void everyFileStatesItsOutcomeAndField() {
    List<MalformedTYJob> corpus = MalformedTYJobs.load();

    assertThat(corpus).hasSizeGreaterThanOrEqualTo(20);
    assertThat(corpus)
        .extracting(MalformedTYJob::expected)
        .contains(Outcome.REFUSED, Outcome.FAILED);
    assertThat(corpus)
        .allSatisfy(
            job -> {
              assertThat(job.field())
                  .as(job.file())
                  .matches("(metadata|spec)(\\.[A-Za-z]+(\\[[^\\]]+\\])*)+");
              assertThat(job.body())
                  .as(job.file())
                  .containsEntry("kind", "TYJob")
                  .containsKey("spec");
            });
  }

  @Test
  void aFolderInTheCorpusFormatLoadsAsTheClasspathCorpusDoes() {
    List<MalformedTYJob> fromFolder =
        MalformedTYJobs.load(Path.of("src/main/resources", MalformedTYJobs.DIRECTORY));

    assertThat(fromFolder).isEqualTo(MalformedTYJobs.load());
  }

  @Test
  void aFolderWithoutAnIndexIsRefusedNamingTheIndex(@TempDir Path folder) {
    assertThatThrownBy(() -> MalformedTYJobs.load(folder)).hasMessageContaining("index.txt");
  }

  @Test
  void keepsTheTypesAsWrittenSoThatWrongTypesReachTheApiServer() {
    MalformedTYJob countsString =
        MalformedTYJobs.load().stream()
            .filter(job -> job.file().equals("counts-string.yaml"))
            .findFirst()
            .orElseThrow();

    Object counts = workerSet(countsString, 0).get("counts");

    assertThat(counts).isEqualTo("three");
  }

  @Test
  void aMessageNamesTheFieldWithOrWithoutIndices() {
    MalformedTYJob job =
        new MalformedTYJob(
            "f.yaml", "f", Outcome.REFUSED, "spec.workerSets[0].counts", "d", Map.of());

    assertThat(
            job.isNamedIn(
                "spec.workerSets[0].counts: 2147483647 is more than the maximum 5000 per WorkerSet"))
        .isTrue();
    assertThat(
            job.isNamedIn(
                "spec.workerSets.counts: Invalid value: 2147483647: spec.workerSets.counts in body should be"
                    + " less than or equal to 5000"))
        .isTrue();
    assertThat(job.isNamedIn("spec.workerSets[1].counts: 0 is less than the minimum 1"))
        .as("another set")
        .isFalse();
    assertThat(job.isNamedIn("spec.restartLimit: -1 is less than the minimum 0")).isFalse();
    assertThat(job.isNamedIn(null)).isFalse();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> workerSet(MalformedTYJob job, int index) {
    Map<String, Object> spec = (Map<String, Object>) job.body().get("spec");
    return ((List<Map<String, Object>>) spec.get("workerSets")).get(index);
  }
}
