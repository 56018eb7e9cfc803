package dev.distlock.compat;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The counts over HTTP: a busy lock answers {@code 409} and an unreachable Redis
 * {@code 503}, as problem details, by distlock's exception handler.
 */
@RestController
public class StockController {

	private final StockService stock;

	StockController(StockService stock) {
		this.stock = stock;
	}

	@PostMapping("/stock/{sku}")
	long increment(@PathVariable String sku) {
		return this.stock.increment(sku);
	}

	@GetMapping("/stock/{sku}")
	long report(@PathVariable String sku) {
		return this.stock.report(sku);
	}

}
