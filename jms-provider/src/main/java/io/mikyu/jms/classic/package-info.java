/**
 * The classic API of Jakarta Messaging 3.1 over the mikyu engine: connections, sessions, producers, consumers,
 * browsers and their XA forms. (The network client of the broker protocol is another module, {@code io.mikyu.client};
 * the simplified API is {@code io.mikyu.jms.context}.) Not API: applications get these objects from the connection
 * factories of {@code io.mikyu.jms}.
 */
package io.mikyu.jms.classic;
