package io.tyrl.arranger.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Loads the malformed TYJob corpus from the classpath ({@code malformed-tyjobs/}, listed by its
 * {@code index.txt}), or a folder in the same format. Each file states its expected outcome in
 * annotations (see the folder's README.md); a file without them, or with an outcome or name that
 * makes no sense, fails the load naming the file, so the corpus cannot silently shrink.
 */
public final class MalformedTYJobs {

  public static final String DIRECTORY = "malformed-tyjobs";
  private static final String INDEX_FILE = "index.txt";
  public static final String EXPECT_ANNOTATION = "corpus.arranger.tyrl.io/expect";
  public static final String FIELD_ANNOTATION = "corpus.arranger.tyrl.io/field";
  public static final String CASE_ANNOTATION = "corpus.arranger.tyrl.io/case";

  private MalformedTYJobs() {}

  /** Every job of the corpus on the classpath, in the order of the index. */
  public static List<MalformedTYJob> load() {
    return load(DIRECTORY, MalformedTYJobs::resource);
  }

  /** Every job of a folder in the corpus's format (an {@code index.txt} and the files it lists). */
  public static List<MalformedTYJob> load(Path folder) {
    return load(
        folder.toString(),
        file -> {
          Path path = folder.resolve(file);
          try {
            return Files.readString(path);
          } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
          }
        });
  }

  /** The file names listed in the classpath corpus's index, without comments and blank lines. */
  public static List<String> indexedFiles() {
    return indexedFiles(resource(INDEX_FILE));
  }

  private static List<MalformedTYJob> load(String where, UnaryOperator<String> textOfFile) {
    List<MalformedTYJob> jobs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (String file : indexedFiles(textOfFile.apply(INDEX_FILE))) {
      MalformedTYJob job = read(where + "/" + file, file, textOfFile.apply(file));
      if (!names.add(job.name())) {
        throw new IllegalStateException(
            where
                + "/"
                + file
                + ": metadata.name "
                + job.name()
                + " is used by another file of the corpus");
      }
      jobs.add(job);
    }
    return List.copyOf(jobs);
  }

  private static List<String> indexedFiles(String index) {
    return index
        .lines()
        .map(String::strip)
        .filter(line -> !line.isEmpty() && !line.startsWith("#"))
        .toList();
  }

  @SuppressWarnings("unchecked")
  private static MalformedTYJob read(String where, String file, String text) {
    Object loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    if (!(loaded instanceof Map<?, ?> body)) {
      throw new IllegalStateException(where + ": not a YAML object");
    }
    Object metadata = body.get("metadata");
    if (!(metadata instanceof Map<?, ?> meta)
        || !(meta.get("name") instanceof String name)
        || !(meta.get("annotations") instanceof Map<?, ?> annotations)) {
      throw new IllegalStateException(where + ": needs metadata.name and metadata.annotations");
    }
    String expect = annotation(where, annotations, EXPECT_ANNOTATION);
    MalformedTYJob.Outcome outcome;
    try {
      outcome = MalformedTYJob.Outcome.valueOf(expect.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          where + ": " + EXPECT_ANNOTATION + " \"" + expect + "\" is neither refused nor failed",
          e);
    }
    return new MalformedTYJob(
        file,
        name,
        outcome,
        annotation(where, annotations, FIELD_ANNOTATION),
        annotation(where, annotations, CASE_ANNOTATION),
        (Map<String, Object>) body);
  }

  private static String annotation(String where, Map<?, ?> annotations, String key) {
    if (!(annotations.get(key) instanceof String value) || value.isBlank()) {
      throw new IllegalStateException(where + ": annotation " + key + " is missing");
    }
    return value;
  }

  private static String resource(String file) {
    String resource = DIRECTORY + "/" + file;
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
