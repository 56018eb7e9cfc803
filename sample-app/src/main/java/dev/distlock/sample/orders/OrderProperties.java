package dev.distlock.sample.orders;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the close-expired-orders job ({@code sample.orders.*}). Its schedule is the
 * cron expression {@code sample.orders.close-cron}, read by {@code @Scheduled} itself,
 * and its lock's lease and minimum hold are {@code sample.orders.close-lease-time} and
 * {@code sample.orders.close-min-hold-time}, read by {@code @DistributedLock}.
 *
 * @param unpaidMaxAge how long an order may stay unpaid before the job closes it
 */
@ConfigurationProperties("sample.orders")
public record OrderProperties(@DefaultValue("15m") Duration unpaidMaxAge) {

}
