package io.tyrl.arranger.scheduler.framework;

/**
 * Policy: a plugin registers typed functions when a session opens. A new instance serves each
 * session, so it may keep per-cycle state (shares, deserved amounts) in fields.
 */
public interface Plugin {

  void onSessionOpen(Session session, PluginHooks hooks);
}
