package io.tyrl.arranger.simulator.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.scheduler.api.Resource;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueueTreeTest {

  private static final List<String> TREE_CSV =
      List.of(
          "# two departments",
          "name,parent,weight,priority,guarantee_gpu,guarantee_cpu,capability_gpu",
          "research,,3,0,40,320,",
          "research-llm,research,2,0,25,,",
          "research-explore,research,1,1,,,",
          "batch,,1,0,,,35",
          "batch-eval,batch,1,0,,,");

  @Test
  void aQueueTreeIsReadFromCsvParentsFirst() {
    QueueTree tree = QueueTreeCsv.read(TREE_CSV);

    assertThat(tree.queues())
        .extracting(QueueSpec::name)
        .containsExactly("research", "research-llm", "research-explore", "batch", "batch-eval");
    QueueSpec research = tree.queue("research");
    assertThat(research.parent()).isNull();
    assertThat(research.weight()).isEqualTo(3);
    assertThat(research.guarantee())
        .isEqualTo(Resource.of(Resource.GPU, "40", Resource.CPU, "320"));
    assertThat(research.capability()).isNull();
    assertThat(tree.queue("research-explore").priority()).isEqualTo(1);
    assertThat(tree.queue("batch").capabilityGpu()).isEqualTo(35);
    assertThat(tree.queue("batch-eval").guarantee()).isEqualTo(Resource.EMPTY);
    assertThat(tree.leaves())
        .extracting(QueueSpec::name)
        .containsExactly("research-llm", "research-explore", "batch-eval");
    assertThat(tree.level("research-llm")).isEqualTo(2);
    assertThat(tree.depth()).isEqualTo(2);
    assertThat(tree.isFlatWeightsOnly()).isFalse();
  }

  @Test
  void aWrittenTreeReadsBackTheSame(@TempDir Path dir) {
    QueueTree tree = TenantSettings.of(10, 1, 1.3, 100).tree();
    Path file = dir.resolve("queues.csv");

    QueueTreeCsv.write(tree, file);

    assertThat(QueueTreeCsv.read(file)).isEqualTo(tree);
  }

  @Test
  void aQueueRowThatCannotBeReadRefusesTheFileNamingLineAndColumn() {
    assertThatThrownBy(() -> QueueTreeCsv.read(List.of("name,parent", "a,", "b,nowhere")))
        .hasMessageContaining("queue tree line 3")
        .hasMessageContaining("its parent nowhere must be listed before it");
    assertThatThrownBy(() -> QueueTreeCsv.read(List.of("name,guarantee_gpu", "a,two")))
        .hasMessageStartingWith("queue tree line 2, column guarantee_gpu: 'two' is not a quantity");
    assertThatThrownBy(() -> QueueTreeCsv.read(List.of("name,colour", "a,red")))
        .hasMessageContaining("unknown column 'colour'");
    assertThatThrownBy(() -> QueueTreeCsv.read(List.of("name", "a", "a")))
        .hasMessageContaining("queue a is listed twice");
  }

  @Test
  void jobsOfATraceOverATreeLiveInItsLeavesWithTheTreesWeights() {
    QueueTree tree = QueueTreeCsv.read(TREE_CSV);
    List<String> jobs =
        List.of(
            "submit_s,name,queue,queue_weight,leader_cpu,leader_memory,leader_gpu,workers,duration_s",
            "0,a,research-llm,,8,64Gi,1,0,60",
            "1,b,research,,8,64Gi,1,0,60",
            "2,c,research-llm,5,8,64Gi,1,0,60",
            "3,d,nowhere,,8,64Gi,1,0,60",
            "4,e,batch-eval,1,8,64Gi,1,0,60");

    CsvImport imported = TraceCsv.read(jobs, tree);

    assertThat(imported.trace().jobs()).extracting(TraceJob::name).containsExactly("a", "e");
    assertThat(imported.trace().jobs().get(0).queueWeight()).isEqualTo(2);
    assertThat(imported.trace().queues()).isEqualTo(tree);
    assertThat(imported.problems())
        .extracting(CsvProblem::toString)
        .containsExactly(
            "line 3, column queue: queue research has child queues (jobs live in leaf queues)",
            "line 4, column queue_weight: queue research-llm has weight 2 in the queue tree, not 5",
            "line 5, column queue: queue nowhere is not in the queue tree");
  }

  @Test
  void theBaselineGetsTheLeavesAtTheTopWithTheirWeightsAndLimitsOnly() {
    QueueTree flat = QueueTreeCsv.read(TREE_CSV).flattened();

    assertThat(flat.queues())
        .containsExactly(
            new QueueSpec("research-llm", null, 2, 0, null, null),
            new QueueSpec("research-explore", null, 1, 0, null, null),
            new QueueSpec("batch-eval", null, 1, 0, null, null));
    assertThat(flat.depth()).isEqualTo(1);
    assertThat(flat.isFlatWeightsOnly()).isTrue();
  }

  @Test
  void aTraceWithoutATreeHasItsQueuesFlatInOrderOfFirstSubmission() {
    Trace trace =
        TraceCsv.read(
                List.of(
                    "submit_s,name,queue,queue_weight,leader_cpu,leader_memory,workers,duration_s",
                    "0,a,z,3,1,1Gi,0,60",
                    "1,b,y,1,1,1Gi,0,60"))
            .trace();

    assertThat(trace.queues()).isEqualTo(QueueTree.flat(trace.queueWeights()));
    assertThat(trace.queues().leaves()).extracting(QueueSpec::name).containsExactly("z", "y");
    assertThat(trace.queues().isFlatWeightsOnly()).isTrue();
  }
}
