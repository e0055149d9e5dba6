/**
 * The configuration the adapter, its pools and its activations share: the properties, how their layers make one
 * provider URL, and the register of the connections the adapter closes on stop. It names no other package of the
 * adapter, so the adapter, the outbound and the inbound side all stand on it.
 */
package io.mikyu.jca.settings;
