package io.tyrl.arranger.kube;

/** One condition the service must meet before it takes traffic, e.g. "informers have synced". */
public interface ReadinessCheck {

  String name();

  boolean ready();
}
