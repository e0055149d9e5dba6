/**
 * JUnit 5 support for applications that use mikyu: {@link io.mikyu.junit5.MikyuTest} (or
 * {@link io.mikyu.junit5.MikyuExtension}) gives each test class, or each test, a store in a temporary directory that
 * is deleted afterwards, injects JMS and engine objects on it, {@link io.mikyu.junit5.MikyuQueues} to send, receive,
 * count and await messages, and optionally a broker on a free port. See {@code docs/testing.md}.
 */
package io.mikyu.junit5;
