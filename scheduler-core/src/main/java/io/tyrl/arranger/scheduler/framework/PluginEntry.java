package io.tyrl.arranger.scheduler.framework;

/**
 * One function one plugin registered when the session opened, in the tier the plugin sits in.
 *
 * @param weight multiplies a node score; 1 for every other kind
 */
record PluginEntry<F>(String plugin, int tier, F fn, double weight) {}
