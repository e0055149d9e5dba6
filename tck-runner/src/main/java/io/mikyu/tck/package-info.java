/**
 * Runs the official Jakarta Messaging TCK against the provider (planned; profile {@code -Ptck}). Nothing here is
 * API.
 */
package io.mikyu.tck;
