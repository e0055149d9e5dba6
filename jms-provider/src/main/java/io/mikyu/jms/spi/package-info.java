/**
 * Narrow interfaces the provider's objects offer to integration code such as the resource adapter
 * ({@code io.mikyu:mikyu-jca}), beyond the Jakarta Messaging API. Not for applications.
 */
package io.mikyu.jms.spi;
