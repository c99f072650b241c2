package io.tyrl.arranger.kube.informer;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import java.io.Closeable;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import okio.BufferedSource;

/**
 * One watch's events, each decoded with the given Gson: the object as {@code T}, or, for an {@code
 * ERROR} event, as the {@link V1Status} the API server sends (its code tells the reflector a 410
 * Gone from other failures), as client-java's {@link Watch} does.
 *
 * @param <T> the watched model
 */
final class ModelWatch<T> implements Watchable<T> {

  private static final String ERROR = "ERROR";

  /**
   * client-java's reflector takes a failure whose message holds this, as its own watch reports a
   * broken stream, for the end of a watch: it lists again without calling the error handler.
   */
  static final String BROKEN_STREAM = "IO Exception during hasNext";

  private final Gson gson;
  private final Class<T> type;
  private final BufferedSource source;
  private final Closeable connection;

  /**
   * @param source the response body's lines, one event each
   * @param connection closed with the watch (the response and its call)
   */
  ModelWatch(Gson gson, Class<T> type, BufferedSource source, Closeable connection) {
    this.gson = gson;
    this.type = type;
    this.source = source;
    this.connection = connection;
  }

  @Override
  public boolean hasNext() {
    try {
      return !source.exhausted();
    } catch (IOException e) {
      throw new UncheckedIOException(
          BROKEN_STREAM + ": watch of " + type.getSimpleName() + " ended: " + e.getMessage(), e);
    }
  }

  @Override
  public Watch.Response<T> next() {
    String line;
    try {
      line = source.readUtf8Line();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "watch of " + type.getSimpleName() + " ended: " + e.getMessage(), e);
    }
    if (line == null) {
      throw new NoSuchElementException("watch of " + type.getSimpleName() + " has no more events");
    }
    return parse(line);
  }

  /**
   * {@code {"type":…,"object":{…}}}; the API server writes the type first, but either order is
   * read.
   */
  Watch.Response<T> parse(String line) {
    try (JsonReader reader = new JsonReader(new StringReader(line))) {
      String eventType = null;
      JsonElement objectBeforeType = null;
      Watch.Response<T> response = null;
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        if (name.equals("type") && reader.peek() == JsonToken.STRING) {
          eventType = reader.nextString();
        } else if (name.equals("object") && eventType != null) {
          response = read(eventType, reader);
        } else if (name.equals("object")) {
          objectBeforeType = gson.fromJson(reader, JsonElement.class);
        } else {
          reader.skipValue();
        }
      }
      reader.endObject();
      if (eventType == null) {
        throw new JsonParseException("watch event without a type: " + abbreviate(line));
      }
      if (response == null && objectBeforeType != null) {
        response =
            eventType.equals(ERROR)
                ? new Watch.Response<>(eventType, gson.fromJson(objectBeforeType, V1Status.class))
                : new Watch.Response<>(eventType, gson.fromJson(objectBeforeType, type));
      }
      return response != null ? response : new Watch.Response<>(eventType, (T) null);
    } catch (IOException e) {
      throw new JsonParseException(
          "unreadable watch event of " + type.getSimpleName() + ": " + abbreviate(line), e);
    }
  }

  private Watch.Response<T> read(String eventType, JsonReader reader) {
    return eventType.equals(ERROR)
        ? new Watch.Response<>(eventType, (V1Status) gson.fromJson(reader, V1Status.class))
        : new Watch.Response<>(eventType, (T) gson.fromJson(reader, type));
  }

  private static String abbreviate(String line) {
    return line.length() <= 200 ? line : line.substring(0, 200) + "…";
  }

  @Override
  public Iterator<Watch.Response<T>> iterator() {
    return this;
  }

  @Override
  public void close() throws IOException {
    connection.close();
  }
}
