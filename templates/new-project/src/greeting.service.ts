// A service the tool injects. Singletons by default: built once at boot.
import { Injectable } from 'mcp-kiln';

@Injectable()
export class GreetingService {
  greet(name: string): string {
    return `Hello, ${name}!`;
  }
}
