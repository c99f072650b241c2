package io.tyrl.arranger.kube;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import io.kubernetes.client.gson.V1MetadataExclusionStrategy;
import io.kubernetes.client.openapi.JSON;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Date;

/**
 * A Gson that reads and writes client-java's models straight from and to the stream, field by
 * field.
 *
 * <p>client-java's own Gson ({@link JSON#getGson()}) registers a generated adapter for each of its
 * ~2,000 models; each reads its object into a tree, validates the tree, then reads the model from
 * the tree — again for every nested model, so a pod is copied once per level of nesting, and the
 * ~2,000 adapter classes stay cold in the JIT for long; writing copies the same way. Watch events
 * of pods and nodes are the services' largest decoding load and pod creates the controller's
 * largest encoding load (docs/performance.md), so those go through this Gson instead: the same
 * field names (the models' {@code @SerializedName}s), the same date and byte adapters (quantities
 * and int-or-strings carry their own), and, like client-java, {@code metadata.managedFields}
 * skipped. What it gives up is the generated validation, which for objects that the API server
 * itself has just validated and served adds nothing.
 */
public final class ModelGson {

  private static final Gson GSON =
      new GsonBuilder()
          .setExclusionStrategies(new V1MetadataExclusionStrategy())
          .registerTypeAdapter(OffsetDateTime.class, new JSON.OffsetDateTimeTypeAdapter())
          .registerTypeAdapter(LocalDate.class, new JSON.LocalDateTypeAdapter())
          .registerTypeAdapter(Date.class, new JSON.DateTypeAdapter())
          .registerTypeAdapter(byte[].class, new JSON.ByteArrayAdapter())
          .create();

  private ModelGson() {}

  /** Thread-safe, like every Gson. */
  public static Gson get() {
    return GSON;
  }
}
