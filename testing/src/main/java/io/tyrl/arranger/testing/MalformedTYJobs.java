package io.tyrl.arranger.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Loads the malformed TYJob corpus from the classpath ({@code malformed-tyjobs/}, listed by its
 * {@code index.txt}). Each file states its expected outcome in annotations (see the folder's
 * README.md); a file without them, or with an outcome or name that makes no sense, fails the load
 * naming the file, so the corpus cannot silently shrink.
 */
public final class MalformedTYJobs {

  public static final String DIRECTORY = "malformed-tyjobs";
  public static final String INDEX = DIRECTORY + "/index.txt";
  public static final String EXPECT_ANNOTATION = "corpus.arranger.tyrl.io/expect";
  public static final String FIELD_ANNOTATION = "corpus.arranger.tyrl.io/field";
  public static final String CASE_ANNOTATION = "corpus.arranger.tyrl.io/case";

  private MalformedTYJobs() {}

  /** Every job of the corpus, in the order of the index. */
  public static List<MalformedTYJob> load() {
    List<MalformedTYJob> jobs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (String file : indexedFiles()) {
      MalformedTYJob job = read(file);
      if (!names.add(job.name())) {
        throw new IllegalStateException(DIRECTORY + "/" + file + ": metadata.name " + job.name()
            + " is used by another file of the corpus");
      }
      jobs.add(job);
    }
    return List.copyOf(jobs);
  }

  /** The file names listed in the index, without comments and blank lines. */
  public static List<String> indexedFiles() {
    return text(INDEX).lines().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
  }

  @SuppressWarnings("unchecked")
  private static MalformedTYJob read(String file) {
    String where = DIRECTORY + "/" + file;
    Object loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(text(where));
    if (!(loaded instanceof Map<?, ?> body)) {
      throw new IllegalStateException(where + ": not a YAML object");
    }
    Object metadata = body.get("metadata");
    if (!(metadata instanceof Map<?, ?> meta) || !(meta.get("name") instanceof String name)
        || !(meta.get("annotations") instanceof Map<?, ?> annotations)) {
      throw new IllegalStateException(where + ": needs metadata.name and metadata.annotations");
    }
    String expect = annotation(where, annotations, EXPECT_ANNOTATION);
    MalformedTYJob.Outcome outcome;
    try {
      outcome = MalformedTYJob.Outcome.valueOf(expect.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(where + ": " + EXPECT_ANNOTATION + " \"" + expect + "\" is neither refused nor failed", e);
    }
    return new MalformedTYJob(file, name, outcome, annotation(where, annotations, FIELD_ANNOTATION),
        annotation(where, annotations, CASE_ANNOTATION), (Map<String, Object>) body);
  }

  private static String annotation(String where, Map<?, ?> annotations, String key) {
    if (!(annotations.get(key) instanceof String value) || value.isBlank()) {
      throw new IllegalStateException(where + ": annotation " + key + " is missing");
    }
    return value;
  }

  private static String text(String resource) {
    try (InputStream in = MalformedTYJobs.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no classpath resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
