package io.tyrl.arranger.scheduler.api;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Matches CRD spellings ("BinPack", "NonStrict") to Java constants (BIN_PACK, NON_STRICT). */
public final class EnumNames {

  private EnumNames() {}

  public static <E extends Enum<E>> E parse(Class<E> type, String name, String field) {
    if (name == null) {
      throw new IllegalArgumentException(field + " must not be null");
    }
    String wanted = normalize(name);
    for (E constant : type.getEnumConstants()) {
      if (normalize(constant.name()).equals(wanted)) {
        return constant;
      }
    }
    throw new IllegalArgumentException(
        field
            + ": unknown value '"
            + name
            + "', expected one of "
            + Arrays.stream(type.getEnumConstants())
                .map(EnumNames::camel)
                .collect(Collectors.joining(", ")));
  }

  /** BIN_PACK → BinPack; DRF stays DRF. */
  public static String camel(Enum<?> constant) {
    String name = constant.name();
    if (!name.contains("_") && name.length() <= 3) {
      return name;
    }
    StringBuilder text = new StringBuilder();
    for (String part : name.split("_")) {
      text.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
    }
    return text.toString();
  }

  /** True when both spell the same name, ignoring case, '_' and '-' ("BIN_PACK" and "BinPack"). */
  public static boolean sameSpelling(String first, String second) {
    return normalize(first).equals(normalize(second));
  }

  private static String normalize(String name) {
    return name.replace("_", "").replace("-", "").toLowerCase(Locale.ROOT);
  }
}
