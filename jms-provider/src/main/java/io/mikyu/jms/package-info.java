/**
 * The Jakarta Messaging 3.1 provider (in progress, see the project's issues): JMS Topics map to log queues,
 * JMS Queues to task queues, as ARCHITECTURE.md describes. Nothing here is API yet.
 */
package io.mikyu.jms;
