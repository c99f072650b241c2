package io.tyrl.arranger.e2e;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The code map in docs/architecture.md is the architecture rule: each row of its table names a
 * package, and what the row says it may import is exactly what the classes there may depend on. One
 * rule per row, read from the page, so the page cannot drift from the code; and every package with
 * production code has a row.
 *
 * <p>It lives in the last module of the build because it reads every module's compiled classes.
 */
class CodeMapTest {

  private static final String ROOT_PACKAGE = "io.tyrl.arranger.";

  /** The words the page uses for libraries, and the packages each stands for. */
  private static final Map<String, List<String>> LIBRARIES =
      Map.ofEntries(
          Map.entry("client-java", List.of("io.kubernetes..")),
          Map.entry("OkHttp", List.of("okhttp3..", "okio..")),
          Map.entry("Gson", List.of("com.google.gson..")),
          Map.entry("Spring", List.of("org.springframework..")),
          Map.entry("Micrometer", List.of("io.micrometer..")),
          Map.entry("SLF4J", List.of("org.slf4j..")),
          Map.entry("SnakeYAML", List.of("org.yaml.snakeyaml..")),
          Map.entry("Jakarta annotations", List.of("jakarta.annotation..")),
          Map.entry("Jakarta Servlet", List.of("jakarta.servlet..")),
          Map.entry("JUnit", List.of("org.junit..")),
          Map.entry("ArchUnit", List.of("com.tngtech.archunit..")),
          Map.entry("AssertJ", List.of("org.assertj..")),
          Map.entry("Jackson", List.of("com.fasterxml.jackson..")));

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  /** One row of the code map: a package and what it may import. */
  record Row(String module, String packageName, List<String> mayImport) {}

  private final Path projectRoot = projectRoot();
  private final List<Row> rows = readRows(projectRoot.resolve("docs/architecture.md"));
  private final JavaClasses production =
      new ClassFileImporter().importPaths(moduleClassDirectories(projectRoot));

  @TestFactory
  Stream<DynamicTest> eachRowOfTheCodeMapIsARule() {
    assertThat(rows).as("rows of the code map in docs/architecture.md").hasSizeGreaterThan(10);
    return rows.stream()
        .map(
            row ->
                DynamicTest.dynamicTest(
                    row.packageName() + " may import " + row.mayImport(),
                    () ->
                        classes()
                            .that(belongTo(row))
                            .should()
                            .onlyDependOnClassesThat()
                            .resideInAnyPackage(allowedPackages(row))
                            .because(
                                "docs/architecture.md's code map says what "
                                    + row.packageName()
                                    + " may import")
                            .check(production)));
  }

  @Test
  void everyPackageWithProductionCodeHasARow() {
    Set<String> mapped = new TreeSet<>();
    rows.forEach(row -> mapped.add(row.packageName()));
    Set<String> unmapped = new TreeSet<>();
    for (JavaClass javaClass : production) {
      String name = javaClass.getPackageName();
      if (name.startsWith(ROOT_PACKAGE) && !mapped.contains(name)) {
        unmapped.add(name);
      }
    }
    assertThat(unmapped).as("packages missing from docs/architecture.md's code map").isEmpty();
  }

  private DescribedPredicate<JavaClass> belongTo(Row row) {
    return DescribedPredicate.describe(
        "reside in " + row.packageName(),
        javaClass -> javaClass.getPackageName().equals(row.packageName()));
  }

  /**
   * The JDK, the row's own package, every package it names (with their subpackages), every library
   * it names.
   */
  private static String[] allowedPackages(Row row) {
    List<String> allowed = new ArrayList<>(List.of("java..", "javax..", row.packageName()));
    for (String entry : row.mayImport()) {
      List<String> library = LIBRARIES.get(entry);
      if (library != null) {
        allowed.addAll(library);
      } else if (entry.startsWith("`")) {
        allowed.add(ROOT_PACKAGE + entry.substring(1, entry.length() - 1) + "..");
      } else {
        throw new IllegalArgumentException(
            "the code map's row for "
                + row.packageName()
                + " names '"
                + entry
                + "', neither a `package` nor a library this test knows ("
                + LIBRARIES.keySet()
                + ")");
      }
    }
    return allowed.toArray(String[]::new);
  }

  /**
   * The rows of the table under "## Code map": {@code | module | `package` | job | may import |
   * start here |}. "may import" lists packages in backquotes (relative to io.tyrl.arranger) and
   * library names, separated by commas; "the JDK only" is the empty list.
   */
  static List<Row> readRows(Path page) {
    List<String> lines;
    try {
      lines = Files.readAllLines(page);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + page, e);
    }
    List<Row> rows = new ArrayList<>();
    boolean inMap = false;
    for (String line : lines) {
      if (line.startsWith("## ")) {
        inMap = line.equals("## Code map");
        continue;
      }
      if (!inMap || !line.startsWith("| `")) {
        continue;
      }
      String[] cells = line.split("\\|", -1);
      if (cells.length < 6) {
        throw new IllegalStateException("a code map row needs 5 cells: " + line);
      }
      String module = strip(cells[1]);
      Matcher packageName = CODE.matcher(cells[2]);
      if (!packageName.find()) {
        throw new IllegalStateException("a code map row names its package in backquotes: " + line);
      }
      rows.add(new Row(module, ROOT_PACKAGE + packageName.group(1), mayImport(cells[4])));
    }
    return rows;
  }

  private static List<String> mayImport(String cell) {
    String text = cell.strip();
    if (text.equals("the JDK only")) {
      return List.of();
    }
    List<String> entries = new ArrayList<>();
    for (String entry : text.split(",")) {
      entries.add(entry.strip());
    }
    return entries;
  }

  private static String strip(String cell) {
    return cell.strip().replace("`", "");
  }

  private static Path[] moduleClassDirectories(Path root) {
    try (Stream<Path> modules = Files.list(root)) {
      return modules
          .map(module -> module.resolve("target/classes"))
          .filter(Files::isDirectory)
          .sorted(Comparator.naturalOrder())
          .toArray(Path[]::new);
    } catch (IOException e) {
      throw new IllegalStateException("cannot list the modules of " + root, e);
    }
  }

  private static Path projectRoot() {
    String configured = System.getProperty("arranger.projectRoot");
    if (configured != null) {
      return Path.of(configured);
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("scripts/control-plane.sh"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no scripts/control-plane.sh above " + Path.of("").toAbsolutePath());
  }
}
