package io.tyrl.arranger.scheduler.conf;

/** A scheduler configuration was refused; the message names the offending key and its path. */
public class InvalidConfigurationException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  public InvalidConfigurationException(String message) {
    super(message);
  }

  public InvalidConfigurationException(String message, Throwable cause) {
    super(message, cause);
  }
}
