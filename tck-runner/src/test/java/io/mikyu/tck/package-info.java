/**
 * Runs the official Jakarta Messaging TCK against the provider (profile {@code -Ptck}, see the module's README):
 * {@link io.mikyu.tck.TckHarness} prepares the TCK's logging before any test, {@link io.mikyu.tck.TckSummary}
 * counts and prints {@code N passed, N failed}. Nothing here is API.
 */
package io.mikyu.tck;
