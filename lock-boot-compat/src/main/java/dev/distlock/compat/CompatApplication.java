package dev.distlock.compat;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application as a user writes it with {@code lock-starter}, Spring MVC and Actuator:
 * locked methods in {@link StockService} and {@link ReactiveStockService}, served by
 * {@link StockController}. Built and run once per supported Spring Boot line.
 */
@SpringBootApplication
public class CompatApplication {

	/**
	 * Starts the application.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(CompatApplication.class, args);
	}

}
